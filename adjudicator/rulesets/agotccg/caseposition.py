def case_state(position): raise NotImplementedError
def case_done(start, state, until): raise NotImplementedError
def case_compare(state, key, expected): raise NotImplementedError
