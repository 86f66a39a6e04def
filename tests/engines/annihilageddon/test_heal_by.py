"""interp.heal_by, the one heal of op_heal and the turn handover, written as comparisons (issue
17, P1), against the rule as AN L352 reads: at any HP, never above 25, never lowering HP."""

from engines.annihilageddon.interp import MAX_HP, heal_by


def test_a_heal_leaves_the_larger_of_the_hp_and_the_hp_healed_capped_at_25():
    for hp in range(-3, MAX_HP + 5):
        for n in range(-5, 2 * MAX_HP):
            p = {"hp": hp}
            heal_by(p, n)
            assert p == {"hp": max(hp, min(MAX_HP, hp + n))}, (hp, n)
