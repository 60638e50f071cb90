-- 0002_payments: Bench.schema.yml
--   create table payments
--   create index payments_account_id (on payments (account_id))

CREATE TABLE "payments" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "account_id" INTEGER NOT NULL,
  "amount" REAL NOT NULL,
  "paid" TEXT NOT NULL,
  FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE
) STRICT;

CREATE INDEX "payments_account_id" ON "payments" ("account_id");
