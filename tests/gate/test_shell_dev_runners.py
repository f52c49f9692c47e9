"""Commands coding agents run every day (test, lint, format and coverage runners, lock-file tools, schema
migrations): they pass; the runners that start the command after them are unwrapped, so what they start is
judged; and the verbs that wipe a database or install a package named on the command line still ask."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict
from tests.gate.known_packages import passes_only_when_known_packages_pass

GATE = SafetyGate(default_policy())


def decision(command: str) -> Decision:
    return GATE.assess(action_from_dict({"type": "shell", "command": command})).decision


@pytest.mark.parametrize("command", [
    "cross-env NODE_ENV=test jest",
    "c8 -r html npm test",
    "nyc --reporter=lcov mocha",
    "bear -- make -j4",
    "ccache gcc -c src/main.c -o build/main.o",
    "dotenv -e .env.test -- jest",
    "env-cmd -f .env.test vitest run",
    "sqlx migrate run",
    "diesel migration run",
    "dbmate up",
    "flyway migrate",
    "goose -dir migrations postgres \"postgres://localhost/app\" up",
    "migrate -path db/migrations -database postgres://localhost:5432/app up",
    "sea-orm-cli migrate up",
    "pip-compile requirements.in",
    "pip-sync requirements.txt",
    "rye sync",
    "pixi install",
    "pyupgrade --py311-plus src/app.py",
    "autoflake --in-place -r src",
    "basedpyright",
    "deptry .",
    "sphinx-apidoc -o docs src",
    "pod install",
    "knip",
    "sass src/styles:dist/css",
])
def test_everyday_developer_commands_pass(command: str) -> None:
    assert decision(command) is Decision.ALLOW


@pytest.mark.parametrize("command", [
    "cross-env NODE_ENV=test rm -rf /",  # what a runner starts is judged as if typed
    "c8 rm -rf ~",
    "nyc rm -rf ~",
    "bear -- rm -rf ~",
    "dotenv -- rm -rf ~",
    "cross-env LD_PRELOAD=/tmp/x.so node app.js",  # the variables a runner sets are judged too
])
def test_what_a_runner_starts_is_judged(command: str) -> None:
    assert decision(command) is not Decision.ALLOW


@pytest.mark.parametrize("command", [
    "flyway clean",
    "sqlx database drop",
    "diesel database reset",
    "dbmate drop",
    "liquibase dropAll",
    "atlas schema clean --url postgres://localhost/app",
    "sea-orm-cli migrate fresh",
    "rye add requests",  # a package named on the command line
    "rye install black",
    "pixi global install cowsay",
])
def test_wiping_verbs_and_named_installs_ask(command: str) -> None:
    assert decision(command) is not Decision.ALLOW


@pytest.mark.parametrize("command", [
    "uv run rm -rf ~",  # a package manager's run verb starts the program after it: judged as if typed
    "poetry run rm -rf ~",
    "pipenv run rm -rf ~",
    "bundle exec rm -rf ~",
    "pnpm exec rm -rf ~",
    "yarn exec rm -rf ~",
    "yarn dlx rm -rf ~",
    "npm exec -- rm -rf ~",
    "conda run -n base rm -rf ~",
    "pnpm exec prisma migrate reset --force",
    "uv run python -c 'import os; os.system(\"id\")'",  # the runner's own function still asks
])
def test_what_a_package_managers_run_verb_starts_is_judged(command: str) -> None:
    assert decision(command) is not Decision.ALLOW


@pytest.mark.parametrize("command", [
    "uv run pytest -q",
    "uv run ruff check .",
    "uv run manage.py test",  # a file of the project
    "uv run format",  # a project's task name that the table knows as something else
    "poetry run myapp serve",  # the project's own entry point
    "poetry run python manage.py migrate",
    "bundle exec rake db:migrate",
    "bundle exec rspec",
    "pnpm exec tsc --noEmit",
    "pnpm dlx create-vite my-app",
    "npm exec -- eslint .",
    "conda run -n env python train.py",
])
def test_everyday_run_verbs_pass(command: str) -> None:
    assert decision(command) is Decision.ALLOW


@pytest.mark.parametrize("command", [
    "find . -type d -name node_modules -prune -exec rm -rf {} +",  # a monorepo's installed packages
    "find . -name '*.pyc' -prune -delete",
])
def test_build_junk_removed_inside_the_project_passes(command: str) -> None:
    assert decision(command) is Decision.ALLOW


@pytest.mark.parametrize("command", [
    "find ~ -name node_modules -exec rm -rf {} +",  # outside the project
    "find . -path ./keep -prune -o -name '*.pyc' -delete",  # -prune with -o: everything else is matched too
    "find . -name src -exec rm -rf {} +",
])
def test_deletes_beyond_build_junk_still_ask(command: str) -> None:
    assert decision(command) is not Decision.ALLOW


@pytest.mark.parametrize("command", [
    "yarn prisma migrate reset --force",  # `yarn NAME`: the package's program NAME, judged as if typed
    "pnpm prisma migrate reset",
    "reset session 2",  # Windows: another user's remote-desktop session
])
def test_a_package_program_run_by_yarn_or_pnpm_is_judged(command: str) -> None:
    assert decision(command) is not Decision.ALLOW


@pytest.mark.parametrize("command", [
    "yarn tsc --noEmit", "pnpm tsx scripts/seed.ts", "yarn prettier --write .", "yarn playwright test",
    "pnpm prisma generate",
    "pnpm env use --global lts",  # their own verbs are not programs
    "pnpm rm lodash", "pnpm import",
    "yarn build", "yarn reset",  # a bare name is a package.json script
    "reset",  # a bare reset clears the terminal
])
def test_yarn_and_pnpm_everyday_uses_pass(command: str) -> None:
    assert decision(command) is Decision.ALLOW


def test_yarn_add_of_a_well_known_package_is_an_install() -> None:
    passes_only_when_known_packages_pass("yarn add react")
