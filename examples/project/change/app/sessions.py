"""Session handling."""

import logging
import secrets
import time

log = logging.getLogger(__name__)

SESSIONS = {}
SESSION_TTL = 3600


def open_session(user):
    token = secrets.token_hex(16)
    SESSIONS[token] = {"user": user, "opened": time.time()}
    log.info("opened session %s for %s", token, user)
    return token


def session_user(token):
    entry = SESSIONS.get(token)
    if entry is None:
        return None
    if time.time() - entry["opened"] > SESSION_TTL:
        return None
    return entry["user"]


def close_session(token):
    SESSIONS.pop(token, None)


def purge_expired():
    for token, entry in SESSIONS.items():
        if time.time() - entry["opened"] > SESSION_TTL:
            del SESSIONS[token]
