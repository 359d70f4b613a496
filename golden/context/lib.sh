# Shared by the .repo scripts of golden/context: a repository on main, a feature branch.
git init -q -b main
commit() { git add -A && git commit -qm "$1"; }
put() { mkdir -p "$(dirname "$1")"; cat > "$1"; }
