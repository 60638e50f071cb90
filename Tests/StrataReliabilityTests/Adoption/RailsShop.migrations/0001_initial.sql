-- 0001_initial: RailsShop.schema.yml
--   create table schema_migrations
--   create table users
--   create table orders
--   create index index_users_on_email (unique on users (email))
--   create index index_orders_on_user_id (on orders (user_id))

CREATE TABLE "schema_migrations" (
  "version" VARCHAR PRIMARY KEY NOT NULL
);

CREATE TABLE "users" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "email" VARCHAR(255) NOT NULL DEFAULT '',
  "first_name" VARCHAR(255),
  "admin" BOOLEAN NOT NULL DEFAULT 0,
  "created_at" DATETIME(6) NOT NULL,
  "updated_at" DATETIME(6) NOT NULL
);

CREATE TABLE "orders" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "user_id" INTEGER NOT NULL,
  "total" DECIMAL(10,2),
  "status" VARCHAR DEFAULT 'pending',
  "shipped_at" DATETIME,
  "created_at" DATETIME(6) NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);

CREATE UNIQUE INDEX "index_users_on_email" ON "users" ("email");

CREATE INDEX "index_orders_on_user_id" ON "orders" ("user_id");
