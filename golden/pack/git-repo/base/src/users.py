"""User lookups."""

from db import query


def fetch_user(user_id):
    """Return the user row for user_id, or None."""
    rows = query("SELECT * FROM users WHERE id = ?", (user_id,))
    return rows[0] if rows else None


def display_name(user):
    """The name shown in the page header."""
    return user["name"].title()
