"""GL-07: session and adventure starts per game line (rules/starts.py)."""

import pytest

from rules import starts


def test_gl_07_conan_session_start_empties_momentum_and_sets_doom_to_the_fortune():
    """GL-07, a Modiphius forum answer on the Conan rules ("Each Session starting
    tokens"): Momentum 0, Doom the sum of the player characters' Fortune."""
    assert starts.session_start("conan", [3, 3]) == starts.PoolStart(0, 6)
    assert starts.session_start("conan", []) == starts.PoolStart(0, 0)


@pytest.mark.parametrize("key", ["seeds", "sta1", "sta2", "fallout", "dune", "achtung"])
def test_gl_07_other_lines_session_start_sets_no_group_or_gm_pool(key):
    assert starts.session_start(key, [3, 3]) == starts.PoolStart()


def test_gl_07_sta_adventure_starts_with_2_threat_per_player_character():
    """GL-07, STA core rulebook (the Gamemaster chapter, Threat): 2 per player character,
    both editions; the other lines' adventures set no Threat."""
    assert starts.adventure_start("sta1", 3) == starts.PoolStart(gm_pool=6)
    assert starts.adventure_start("sta2", 2) == starts.PoolStart(gm_pool=4)
    assert starts.adventure_start("dune", 2) == starts.PoolStart()
    assert starts.starts_adventures("sta1") and not starts.starts_adventures("conan")


def test_gl_07_bad_counts_are_refused():
    with pytest.raises(ValueError):
        starts.adventure_start("sta1", -1)
    with pytest.raises(ValueError):
        starts.session_start("conan", [3, -1])
