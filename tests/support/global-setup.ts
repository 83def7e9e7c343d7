/** Runs once per `vitest run`: says which database backends the integration tests cover. */
export default function setup() {
  if (process.env.DATABASE_URL) {
    console.log("Integration tests: SQLite and PostgreSQL (DATABASE_URL is set).");
  } else {
    console.log(
      "Integration tests: SQLite only. Set DATABASE_URL=postgres://… (a role that may CREATE DATABASE) to run them against PostgreSQL too, and the fleet tests (several instances on one database); scripts/test-postgres.sh start prints one.",
    );
  }
}
