/** Holds an exclusive lock on a SQLite file for `ms` milliseconds, as a CLI import in another process does. */
import { openDatabase } from "../../../../src/core/db/sqlite";

const [path, ms] = process.argv.slice(2);
const db = openDatabase(path!);
db.exec("CREATE TABLE IF NOT EXISTS t(x)");
db.exec("BEGIN EXCLUSIVE");
db.run("INSERT INTO t VALUES (1)");
process.stdout.write("held\n");
setTimeout(() => {
  db.exec("COMMIT");
  db.close();
}, Number(ms));
