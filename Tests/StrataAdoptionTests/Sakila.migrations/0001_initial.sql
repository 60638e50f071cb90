-- 0001_initial: Sakila.schema.yml
--   create table actor
--   create table country
--   create table city
--   create table address
--   create table language
--   create table category
--   create table film
--   create table film_actor
--   create table film_category
--   create table film_text
--   create table staff
--   create table store
--   create table customer
--   create table inventory
--   create table rental
--   create table payment
--   create index idx_actor_last_name (on actor (last_name))
--   create index idx_fk_country_id (on city (country_id))
--   create index idx_fk_city_id (on address (city_id))
--   create index idx_fk_language_id (on film (language_id))
--   create index idx_fk_original_language_id (on film (original_language_id))
--   create index idx_fk_film_actor_actor (on film_actor (actor_id))
--   create index idx_fk_film_actor_film (on film_actor (film_id))
--   create index idx_unique_manager (unique on store (manager_staff_id))
--   create index idx_rental_uq (unique on rental (rental_date, inventory_id, customer_id))
--   create view customer_list
--   create view film_list
--   create view sales_by_store
--   create trigger actor_trigger_ai
--   create trigger actor_trigger_au
--   create trigger country_trigger_ai

CREATE TABLE "actor" (
  "actor_id" NUMERIC PRIMARY KEY NOT NULL,
  "first_name" VARCHAR(45) NOT NULL,
  "last_name" VARCHAR(45) NOT NULL,
  "last_update" TIMESTAMP NOT NULL
);

CREATE TABLE "country" (
  "country_id" SMALLINT PRIMARY KEY NOT NULL,
  "country" VARCHAR(50) NOT NULL,
  "last_update" TIMESTAMP
);

CREATE TABLE "city" (
  "city_id" INT PRIMARY KEY NOT NULL,
  "city" VARCHAR(50) NOT NULL,
  "country_id" SMALLINT NOT NULL,
  "last_update" TIMESTAMP NOT NULL,
  FOREIGN KEY ("country_id") REFERENCES "country" ("country_id") ON UPDATE CASCADE
);

CREATE TABLE "address" (
  "address_id" INT PRIMARY KEY NOT NULL,
  "address" VARCHAR(50) NOT NULL,
  "address2" VARCHAR(50),
  "district" VARCHAR(20) NOT NULL,
  "city_id" INT NOT NULL,
  "postal_code" VARCHAR(10),
  "phone" VARCHAR(20) NOT NULL,
  "last_update" TIMESTAMP NOT NULL,
  FOREIGN KEY ("city_id") REFERENCES "city" ("city_id") ON UPDATE CASCADE
);

CREATE TABLE "language" (
  "language_id" SMALLINT PRIMARY KEY NOT NULL,
  "name" CHAR(20) NOT NULL,
  "last_update" TIMESTAMP NOT NULL
);

CREATE TABLE "category" (
  "category_id" SMALLINT PRIMARY KEY NOT NULL,
  "name" VARCHAR(25) NOT NULL,
  "last_update" TIMESTAMP NOT NULL
);

CREATE TABLE "film" (
  "film_id" INT PRIMARY KEY NOT NULL,
  "title" VARCHAR(255) NOT NULL,
  "description" BLOB SUB_TYPE TEXT,
  "release_year" VARCHAR(4),
  "language_id" SMALLINT NOT NULL,
  "original_language_id" SMALLINT,
  "rental_duration" SMALLINT NOT NULL DEFAULT 3,
  "rental_rate" DECIMAL(4,2) NOT NULL DEFAULT 4.99,
  "length" SMALLINT,
  "replacement_cost" DECIMAL(5,2) NOT NULL DEFAULT 19.99,
  "rating" VARCHAR(10) DEFAULT 'G',
  "special_features" VARCHAR(100),
  "last_update" TIMESTAMP NOT NULL,
  FOREIGN KEY ("language_id") REFERENCES "language" ("language_id"),
  FOREIGN KEY ("original_language_id") REFERENCES "language" ("language_id"),
  CHECK (special_features is null or
                                                           special_features like '%Trailers%' or
                                                           special_features like '%Commentaries%' or
                                                           special_features like '%Deleted Scenes%' or
                                                           special_features like '%Behind the Scenes%'),
  CHECK (rating in ('G','PG','PG-13','R','NC-17'))
);

CREATE TABLE "film_actor" (
  "actor_id" INT NOT NULL,
  "film_id" INT NOT NULL,
  "last_update" TIMESTAMP NOT NULL,
  PRIMARY KEY ("actor_id", "film_id"),
  FOREIGN KEY ("actor_id") REFERENCES "actor" ("actor_id") ON UPDATE CASCADE,
  FOREIGN KEY ("film_id") REFERENCES "film" ("film_id") ON UPDATE CASCADE
);

CREATE TABLE "film_category" (
  "film_id" INT NOT NULL,
  "category_id" SMALLINT NOT NULL,
  "last_update" TIMESTAMP NOT NULL,
  PRIMARY KEY ("film_id", "category_id"),
  FOREIGN KEY ("film_id") REFERENCES "film" ("film_id") ON UPDATE CASCADE,
  FOREIGN KEY ("category_id") REFERENCES "category" ("category_id") ON UPDATE CASCADE
);

CREATE TABLE "film_text" (
  "film_id" SMALLINT PRIMARY KEY NOT NULL,
  "title" VARCHAR(255) NOT NULL,
  "description" BLOB SUB_TYPE TEXT
);

CREATE TABLE "staff" (
  "staff_id" SMALLINT PRIMARY KEY NOT NULL,
  "first_name" VARCHAR(45) NOT NULL,
  "last_name" VARCHAR(45) NOT NULL,
  "address_id" INT NOT NULL,
  "picture" BLOB,
  "email" VARCHAR(50),
  "store_id" INT NOT NULL,
  "active" SMALLINT NOT NULL DEFAULT 1,
  "username" VARCHAR(16) NOT NULL,
  "password" VARCHAR(40),
  "last_update" TIMESTAMP NOT NULL,
  FOREIGN KEY ("address_id") REFERENCES "address" ("address_id") ON UPDATE CASCADE,
  FOREIGN KEY ("store_id") REFERENCES "store" ("store_id") ON UPDATE CASCADE
);

CREATE TABLE "store" (
  "store_id" INT PRIMARY KEY NOT NULL,
  "manager_staff_id" SMALLINT NOT NULL,
  "address_id" INT NOT NULL,
  "last_update" TIMESTAMP NOT NULL,
  FOREIGN KEY ("manager_staff_id") REFERENCES "staff" ("staff_id"),
  FOREIGN KEY ("address_id") REFERENCES "address" ("address_id")
);

CREATE TABLE "customer" (
  "customer_id" INT PRIMARY KEY NOT NULL,
  "store_id" INT NOT NULL,
  "first_name" VARCHAR(45) NOT NULL,
  "last_name" VARCHAR(45) NOT NULL,
  "email" VARCHAR(50),
  "address_id" INT NOT NULL,
  "active" CHAR(1) NOT NULL DEFAULT 'Y',
  "create_date" TIMESTAMP NOT NULL,
  "last_update" TIMESTAMP NOT NULL,
  FOREIGN KEY ("store_id") REFERENCES "store" ("store_id") ON UPDATE CASCADE,
  FOREIGN KEY ("address_id") REFERENCES "address" ("address_id") ON UPDATE CASCADE
);

CREATE TABLE "inventory" (
  "inventory_id" INT PRIMARY KEY NOT NULL,
  "film_id" INT NOT NULL,
  "store_id" INT NOT NULL,
  "last_update" TIMESTAMP NOT NULL,
  FOREIGN KEY ("film_id") REFERENCES "film" ("film_id") ON UPDATE CASCADE,
  FOREIGN KEY ("store_id") REFERENCES "store" ("store_id") ON UPDATE CASCADE
);

CREATE TABLE "rental" (
  "rental_id" INT PRIMARY KEY NOT NULL,
  "rental_date" TIMESTAMP NOT NULL,
  "inventory_id" INT NOT NULL,
  "customer_id" INT NOT NULL,
  "return_date" TIMESTAMP,
  "staff_id" SMALLINT NOT NULL,
  "last_update" TIMESTAMP NOT NULL,
  FOREIGN KEY ("inventory_id") REFERENCES "inventory" ("inventory_id"),
  FOREIGN KEY ("customer_id") REFERENCES "customer" ("customer_id"),
  FOREIGN KEY ("staff_id") REFERENCES "staff" ("staff_id")
);

CREATE TABLE "payment" (
  "payment_id" INT PRIMARY KEY NOT NULL,
  "customer_id" INT NOT NULL,
  "staff_id" SMALLINT NOT NULL,
  "rental_id" INT,
  "amount" DECIMAL(5,2) NOT NULL,
  "payment_date" TIMESTAMP NOT NULL,
  "last_update" TIMESTAMP NOT NULL,
  FOREIGN KEY ("customer_id") REFERENCES "customer" ("customer_id"),
  FOREIGN KEY ("staff_id") REFERENCES "staff" ("staff_id"),
  FOREIGN KEY ("rental_id") REFERENCES "rental" ("rental_id") ON DELETE SET NULL ON UPDATE CASCADE
);

CREATE INDEX "idx_actor_last_name" ON "actor" ("last_name");

CREATE INDEX "idx_fk_country_id" ON "city" ("country_id");

CREATE INDEX "idx_fk_city_id" ON "address" ("city_id");

CREATE INDEX "idx_fk_language_id" ON "film" ("language_id");

CREATE INDEX "idx_fk_original_language_id" ON "film" ("original_language_id");

CREATE INDEX "idx_fk_film_actor_actor" ON "film_actor" ("actor_id");

CREATE INDEX "idx_fk_film_actor_film" ON "film_actor" ("film_id");

CREATE UNIQUE INDEX "idx_unique_manager" ON "store" ("manager_staff_id");

CREATE UNIQUE INDEX "idx_rental_uq" ON "rental" ("rental_date", "inventory_id", "customer_id");

CREATE VIEW "customer_list" AS SELECT cu.customer_id AS ID,
       cu.first_name||' '||cu.last_name AS name,
       a.address AS address,
       a.postal_code AS zip_code,
       a.phone AS phone,
       city.city AS city,
       country.country AS country,
       case when cu.active=1 then 'active' else '' end AS notes,
       cu.store_id AS SID
FROM customer AS cu JOIN address AS a ON cu.address_id = a.address_id JOIN city ON a.city_id = city.city_id
    JOIN country ON city.country_id = country.country_id;

CREATE VIEW "film_list" AS SELECT film.film_id AS FID,
       film.title AS title,
       film.description AS description,
       category.name AS category,
       film.rental_rate AS price,
       film.length AS length,
       film.rating AS rating,
       actor.first_name||' '||actor.last_name AS actors
FROM category LEFT JOIN film_category ON category.category_id = film_category.category_id LEFT JOIN film ON film_category.film_id = film.film_id
        JOIN film_actor ON film.film_id = film_actor.film_id
    JOIN actor ON film_actor.actor_id = actor.actor_id;

CREATE VIEW "sales_by_store" AS SELECT
  s.store_id
 ,c.city||','||cy.country AS store
 ,m.first_name||' '||m.last_name AS manager
 ,SUM(p.amount) AS total_sales
FROM payment AS p
INNER JOIN rental AS r ON p.rental_id = r.rental_id
INNER JOIN inventory AS i ON r.inventory_id = i.inventory_id
INNER JOIN store AS s ON i.store_id = s.store_id
INNER JOIN address AS a ON s.address_id = a.address_id
INNER JOIN city AS c ON a.city_id = c.city_id
INNER JOIN country AS cy ON c.country_id = cy.country_id
INNER JOIN staff AS m ON s.manager_staff_id = m.staff_id
GROUP BY
  s.store_id
, c.city||','||cy.country
, m.first_name||' '||m.last_name;

CREATE TRIGGER actor_trigger_ai AFTER INSERT ON actor
 BEGIN
  UPDATE actor SET last_update = DATETIME('NOW')  WHERE rowid = new.rowid;
 END;

CREATE TRIGGER actor_trigger_au AFTER UPDATE ON actor
 BEGIN
  UPDATE actor SET last_update = DATETIME('NOW')  WHERE rowid = new.rowid;
 END;

CREATE TRIGGER country_trigger_ai AFTER INSERT ON country
 BEGIN
  UPDATE country SET last_update = DATETIME('NOW')  WHERE rowid = new.rowid;
 END;
