/// The databases the adoption tests build: each in the style of a tool that made it.
enum AdoptionStyle: String, CaseIterable, Sendable {
    case rails
    case django
    case mobile
    case catalog

    /// The schema file name (and namespace) `strata introspect` writes for it.
    var schemaName: String {
        switch self {
        case .rails: "RailsShop"
        case .django: "DjangoBlog"
        case .mobile: "MobileNotes"
        case .catalog: "Catalog"
        }
    }

    /// The SQL that builds the database, with its rows.
    var sql: String {
        switch self {
        case .rails:
            #"""
            CREATE TABLE "schema_migrations" ("version" varchar NOT NULL PRIMARY KEY);
            CREATE TABLE "users" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "email" varchar(255) DEFAULT '' NOT NULL, "first_name" varchar(255), "admin" boolean DEFAULT 0 NOT NULL, "created_at" datetime(6) NOT NULL, "updated_at" datetime(6) NOT NULL);
            CREATE UNIQUE INDEX "index_users_on_email" ON "users" ("email");
            CREATE TABLE "orders" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" integer NOT NULL, "total" decimal(10,2), "status" varchar DEFAULT 'pending', "shipped_at" datetime, "created_at" datetime(6) NOT NULL, CONSTRAINT "fk_rails_f868b47f6a" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE);
            CREATE INDEX "index_orders_on_user_id" ON "orders" ("user_id");
            INSERT INTO schema_migrations VALUES ('20240101000000');
            INSERT INTO users VALUES (1, 'ann@example.com', 'Ann', 1, '2024-01-02 10:00:00.123456', '2024-01-02 10:00:00.123456');
            INSERT INTO users VALUES (2, 'bob@example.com', NULL, 0, '2024-02-03T04:05:06Z', '2024-02-03T04:05:06+02:00');
            INSERT INTO orders VALUES (1, 1, 19.99, 'paid', '2024-03-01 12:00', '2024-03-01 11:00:00');
            INSERT INTO orders VALUES (2, 1, 5, 'pending', NULL, '2024-03-02');
            INSERT INTO orders VALUES (3, 2, 3.0, NULL, 1709294400, '2024-03-04 00:00:00.5');
            """#
        case .django:
            #"""
            CREATE TABLE "blog_author" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(100) NOT NULL, "is_active" bool NOT NULL, "joined" date NOT NULL);
            CREATE TABLE "blog_entry" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "headline" varchar(255) NOT NULL, "rating" decimal(10, 2) NOT NULL, "views" integer unsigned NOT NULL CHECK ("views" >= 0), "uuid" char(32) NOT NULL UNIQUE, "ident" uuid NULL, "author_id" bigint NOT NULL REFERENCES "blog_author" ("id") DEFERRABLE INITIALLY DEFERRED, "pub_date" datetime NOT NULL, "flag" bool NULL);
            CREATE INDEX "blog_entry_author_id_4b5d3a1e" ON "blog_entry" ("author_id");
            INSERT INTO blog_author VALUES (1, 'Ann', 1, '2020-05-06');
            INSERT INTO blog_author VALUES (2, 'Bob', 0, '2021-07-08');
            INSERT INTO blog_entry VALUES (1, 'Hello', 4.5, 10, 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F', 1, '2024-01-01 09:30:00', 1);
            INSERT INTO blog_entry VALUES (2, 'World', 3, 0, 'ffffffffffffffffffffffffffffffff', NULL, 2, '2024-01-02 09:30:00.250', 'yes');
            """#
        case .mobile:
            #"""
            CREATE TABLE `note_folders` (`folderId` TEXT NOT NULL, `title` TEXT NOT NULL, `sortOrder` INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(`folderId`)) WITHOUT ROWID;
            CREATE TABLE `notes` (`folderId` TEXT NOT NULL, `noteId` INTEGER NOT NULL, `body` TEXT, `pinned` INTEGER NOT NULL DEFAULT 0, `updatedAt` INTEGER NOT NULL, `thumbnail` BLOB, PRIMARY KEY(`folderId`, `noteId`), FOREIGN KEY(`folderId`) REFERENCES `note_folders`(`folderId`) ON UPDATE NO ACTION ON DELETE CASCADE) WITHOUT ROWID;
            CREATE TABLE `settings` (`key` TEXT NOT NULL PRIMARY KEY, `value` ANY, `ratio` REAL NOT NULL DEFAULT 1.5) STRICT;
            INSERT INTO note_folders VALUES ('inbox', 'Inbox', 0), ('work', 'Work', 1);
            INSERT INTO notes VALUES ('inbox', 1, 'Milk', 1, 1700000000, NULL), ('inbox', 2, NULL, 0, 1700000100, x'00ff10'), ('work', 1, 'Ship it', 0, 1700000200, NULL);
            INSERT INTO settings VALUES ('theme', 'dark', 1.5), ('count', 3, 2.0);
            """#
        case .catalog:
            #"""
            CREATE TABLE product (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, sku TEXT NOT NULL, price REAL NOT NULL CHECK (price >= 0), discontinued INTEGER NOT NULL DEFAULT 0, CHECK (length(sku) = 8));
            CREATE UNIQUE INDEX product_sku ON product (sku);
            CREATE INDEX product_active_price ON product (price) WHERE discontinued = 0;
            CREATE INDEX product_lower_name ON product (lower(name));
            CREATE TABLE price_change (id INTEGER PRIMARY KEY AUTOINCREMENT, product_id INTEGER NOT NULL REFERENCES product (id) ON DELETE CASCADE, old_price REAL, new_price REAL, changed_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
            CREATE VIEW active_product AS SELECT id, name, price FROM product WHERE discontinued = 0;
            CREATE TRIGGER product_price_log AFTER UPDATE OF price ON product
            BEGIN
              INSERT INTO price_change (product_id, old_price, new_price) VALUES (old.id, old.price, new.price);
            END;
            INSERT INTO product VALUES (1, 'Widget', 'WID-0001', 9.5, 0), (2, 'Gadget', 'GAD-0002', 20, 1);
            UPDATE product SET price = 10 WHERE id = 1;
            """#
        }
    }
}
