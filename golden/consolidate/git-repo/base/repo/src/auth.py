import hmac


def check(token: str, expected: str) -> bool:
    # compare the request token
    if token == expected:
        return True
    return False


def login(user, password):
    query = f"SELECT * FROM users WHERE name = '{user}'"
    return query
