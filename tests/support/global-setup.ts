/** Runs once per `vitest run`: says which database and image storage backends the integration tests cover. */
export default function setup() {
  if (process.env.S3_BUCKET && process.env.S3_ENDPOINT) {
    console.log("Image storage tests: local disk and S3 (S3_BUCKET and S3_ENDPOINT are set).");
  } else {
    console.log("Image storage tests: local disk only. `eval \"$(scripts/test-s3.sh start)\"` starts an S3 server and sets S3_* to run them on S3 too.");
  }
  if (process.env.DATABASE_URL) {
    console.log("Integration tests: SQLite and PostgreSQL (DATABASE_URL is set).");
  } else {
    console.log(
      "Integration tests: SQLite only. Set DATABASE_URL=postgres://… (a role that may CREATE DATABASE) to run them against PostgreSQL too, and the fleet tests (several instances on one database); scripts/test-postgres.sh start prints one.",
    );
  }
}
