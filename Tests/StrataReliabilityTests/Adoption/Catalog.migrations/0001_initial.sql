-- 0001_initial: Catalog.schema.yml
--   create table product
--   create table price_change
--   create index product_active_price (on product (price) where discontinued = 0)
--   create index product_lower_name (on product ((lower(name))))
--   create index product_sku (unique on product (sku))
--   create view active_product
--   create trigger product_price_log

CREATE TABLE "product" (
  "id" INTEGER PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL COLLATE NOCASE,
  "sku" TEXT NOT NULL,
  "price" REAL NOT NULL CHECK (price >= 0),
  "discontinued" INTEGER NOT NULL DEFAULT 0,
  CHECK (length(sku) = 8)
);

CREATE TABLE "price_change" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "product_id" INTEGER NOT NULL,
  "old_price" REAL,
  "new_price" REAL,
  "changed_at" TEXT NOT NULL DEFAULT (CURRENT_TIMESTAMP),
  FOREIGN KEY ("product_id") REFERENCES "product" ("id") ON DELETE CASCADE
);

CREATE INDEX "product_active_price" ON "product" ("price") WHERE discontinued = 0;

CREATE INDEX "product_lower_name" ON "product" (lower(name));

CREATE UNIQUE INDEX "product_sku" ON "product" ("sku");

CREATE VIEW "active_product" AS SELECT id, name, price FROM product WHERE discontinued = 0;

CREATE TRIGGER product_price_log AFTER UPDATE OF price ON product
BEGIN
  INSERT INTO price_change (product_id, old_price, new_price) VALUES (old.id, old.price, new.price);
END;
