"""Helpers nobody calls any more."""


def legacy_name(user):
    return user["first"] + " " + user["last"]
