"""The foundations every paper relies on (not a paper): GDP, the RDP conversions and the
Poisson-subsampled Gaussian RDP, with their claims (``claims``) and the tour's figures
(``figures``). The mathematics lives in the concept modules :mod:`dpsym.fdp` and
:mod:`dpsym.rdp`.
"""
