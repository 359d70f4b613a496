def total(rows):
    out = 0
    for r in rows:
        for s in rows:
            out += r * s
    return out
