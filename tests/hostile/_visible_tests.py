import pytest


def test_2024_is_a_leap_year():
    assert is_leap_year(2024) == True  # noqa: E712


def test_2023_is_not():
    assert is_leap_year(2023) == False  # noqa: E712


def test_1900_is_a_century_and_not_a_leap_year():
    assert is_leap_year(1900) == False  # noqa: E712


def test_2000_is_divisible_by_400():
    assert is_leap_year(2000) == True  # noqa: E712


def test_rejects_zero():
    with pytest.raises(ValueError):
        is_leap_year(0)
