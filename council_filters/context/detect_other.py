"""Stack detection for Go, Rust, Ruby, the JVM, PHP, Elixir, .NET and Swift roots."""

from __future__ import annotations

import re

from council_filters.context.tree import (
    DOTNET,
    Stack,
    Tree,
    ancestors,
    dig,
    join,
    load_json,
    nearest,
)


def detect_go(tree: Tree, root: str) -> Stack:
    lock = join(root, "go.sum") if tree.has(root, "go.sum") else None
    return Stack(root, "go", "go", "go", join(root, "go.mod"), lock, "go test", "go test ./...",
                 "go test -coverprofile=coverage.out ./...")


def detect_rust(tree: Tree, root: str) -> Stack:
    lock = nearest(tree, root, (("Cargo.lock", "cargo"),))
    nextest = any(tree.has(join(d, ".config"), "nextest.toml") for d in ancestors(root))
    test = "cargo nextest run" if nextest else "cargo test"
    return Stack(root, "rust", "rust", "cargo", join(root, "Cargo.toml"),
                 lock[0] if lock else None, "nextest" if nextest else "libtest", test, None)


def detect_ruby(tree: Tree, root: str) -> Stack:
    gemfile = tree.text(join(root, "Gemfile"))
    lock = join(root, "Gemfile.lock") if tree.has(root, "Gemfile.lock") else None
    gems = set(re.findall(r"""(?m)^\s*gem\s+['"]([\w-]+)['"]""", gemfile))
    rails = "rails" in gems or tree.has(join(root, "bin"), "rails")
    rspec = tree.has(root, ".rspec") or "rspec" in gems or "rspec-rails" in gems or any(
        p.endswith("_spec.rb") for p in tree.under(join(root, "spec")))
    minitest = tree.has_dir(join(root, "test")) or "minitest" in gems
    if rspec:
        framework, test = "rspec", "bundle exec rspec"
    elif minitest and rails:
        framework, test = "minitest", "bin/rails test"
    elif minitest or tree.has(root, "Rakefile"):
        framework, test = "minitest", "bundle exec rake test"
    else:
        framework, test = None, None
    coverage = test if test and "simplecov" in gems else None
    return Stack(root, "ruby", "ruby", "bundler", join(root, "Gemfile"), lock, framework, test,
                 coverage)


def _wrapper(tree: Tree, root: str, name: str) -> str | None:
    """A relative path from ``root`` to the nearest build wrapper script (``./gradlew``)."""
    for depth, directory in enumerate(ancestors(root)):
        if tree.has(directory, name):
            return "./" + name if depth == 0 else "/".join([".."] * depth + [name])
    return None


def detect_jvm(tree: Tree, root: str) -> Stack:
    kotlin = tree.has_dir(join(root, "src/main/kotlin")) and not tree.has_dir(
        join(root, "src/main/java"))
    language = "kotlin" if kotlin else "java"
    gradle_file = next((n for n in ("build.gradle.kts", "build.gradle") if tree.has(root, n)), None)
    mvnw, gradlew = _wrapper(tree, root, "mvnw"), _wrapper(tree, root, "gradlew")
    if tree.has(root, "pom.xml") and not (gradle_file and gradlew and not mvnw):
        mvn = mvnw or "mvn"
        pom = tree.text(join(root, "pom.xml"))
        coverage = f"{mvn} test jacoco:report" if "jacoco" in pom else None
        return Stack(root, "jvm", language, "maven", join(root, "pom.xml"), None, "junit",
                     f"{mvn} test", coverage)
    assert gradle_file is not None
    gradle = gradlew or "gradle"
    build = tree.text(join(root, gradle_file))
    coverage = f"{gradle} test jacocoTestReport" if "jacoco" in build else None
    lock = join(root, "gradle.lockfile") if tree.has(root, "gradle.lockfile") else None
    return Stack(root, "jvm", language, "gradle", join(root, gradle_file), lock, "junit",
                 f"{gradle} test", coverage)


def detect_php(tree: Tree, root: str) -> Stack:
    notes: list[str] = []
    manifest = join(root, "composer.json")
    composer = load_json(tree, manifest, notes)
    lock = join(root, "composer.lock") if tree.has(root, "composer.lock") else None
    dev = set()
    for key in ("require", "require-dev"):
        if isinstance(composer.get(key), dict):
            dev.update(composer[key])
    script = dig(composer, "scripts", "test")
    if script:
        framework = "pest" if "pestphp/pest" in dev else "phpunit" if "phpunit/phpunit" in dev \
            else None
        test: str | None = "composer test"
    elif "pestphp/pest" in dev:
        framework, test = "pest", "vendor/bin/pest"
    elif "phpunit/phpunit" in dev or tree.has(root, "phpunit.xml") or tree.has(
            root, "phpunit.xml.dist"):
        framework, test = "phpunit", "vendor/bin/phpunit"
    else:
        framework, test = None, None
    coverage = f"{test} --coverage-clover coverage.xml" if test and test.startswith(
        "vendor/bin/") else None
    return Stack(root, "php", "php", "composer", manifest, lock, framework, test, coverage,
                 notes=notes)


def detect_elixir(tree: Tree, root: str) -> Stack:
    lock = join(root, "mix.lock") if tree.has(root, "mix.lock") else None
    return Stack(root, "elixir", "elixir", "mix", join(root, "mix.exs"), lock, "exunit",
                 "mix test", "mix test --cover")


def detect_dotnet(tree: Tree, root: str) -> Stack:
    names = sorted(tree.names.get(root, ()))
    project = next((n for n in names if DOTNET.search(n) and not n.endswith(".sln")), None)
    manifest = join(root, project or next(n for n in names if n.endswith(".sln")))
    language = "fsharp" if manifest.endswith(".fsproj") else "csharp"
    coverlet = "coverlet" in tree.text(manifest).lower()
    coverage = 'dotnet test --collect:"XPlat Code Coverage"' if coverlet else None
    return Stack(root, "dotnet", language, "dotnet", manifest, None, None, "dotnet test", coverage)


def detect_swift(tree: Tree, root: str) -> Stack:
    lock = join(root, "Package.resolved") if tree.has(root, "Package.resolved") else None
    return Stack(root, "swift", "swift", "swiftpm", join(root, "Package.swift"), lock, "xctest",
                 "swift test", "swift test --enable-code-coverage")

