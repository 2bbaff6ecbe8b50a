"""What the 2d20 composer posts for a plain test, shared by the test files that roll one."""


def roll_data(character, **overrides) -> dict:
    """Kara's Power 7 + Communicate 6 (target 13) at Difficulty 1, nothing bought or spent."""
    return {
        "character": character.pk,
        "attribute": "Power",
        "skill": "Communicate",
        "focus": "",
        "difficulty": 1,
        "harder": 0,
        "easier": 0,
        "bought_dice": 0,
        "buy_from_momentum": 0,
        "bonus_momentum": 0,
        **overrides,
    }
