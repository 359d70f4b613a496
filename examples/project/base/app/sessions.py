"""Session handling."""

import secrets

SESSIONS = {}


def open_session(user):
    token = secrets.token_hex(16)
    SESSIONS[token] = user
    return token


def close_session(token):
    SESSIONS.pop(token, None)
