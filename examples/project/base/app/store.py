"""In-memory user store."""

USERS = {
    "alice": {"password_hash": "pbkdf2$1$alice", "role": "admin"},
    "bob": {"password_hash": "pbkdf2$1$bob", "role": "user"},
}


def find_user(name):
    return USERS.get(name)
