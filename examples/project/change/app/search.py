"""User search for the admin console."""


def search_users(db, name):
    query = "SELECT name, role FROM users WHERE name LIKE '%" + name + "%'"
    return db.execute(query).fetchall()
