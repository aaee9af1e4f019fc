"""One module per paper: each numbered statement as a function of the paper's symbols.

Functions are named after their statement (``lem_a_3``, ``thm_4_2``, ``figure_2``) and
built only from the concept modules (:mod:`dpsym.fdp`, :mod:`dpsym.rdp`, ...).
"""
