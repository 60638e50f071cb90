-- 0001_initial: WordPress.schema.yml
--   create table _mysql_data_types_cache
--   create table wp_users
--   create table wp_usermeta
--   create table wp_posts
--   create table wp_options
--   create index wp_users__user_email (on wp_users (user_email))
--   create index wp_users__user_login_key (on wp_users (user_login))
--   create index wp_usermeta__user_id (on wp_usermeta (user_id))
--   create index wp_posts__post_name (on wp_posts (post_name))
--   create index wp_posts__post_parent (on wp_posts (post_parent))
--   create index wp_posts__type_status_date (on wp_posts (post_type, post_status, post_date, ID))
--   create index wp_options__autoload (on wp_options (autoload))
--   create index wp_options__option_name (unique on wp_options (option_name))

CREATE TABLE "_mysql_data_types_cache" (
  "table" TEXT NOT NULL,
  "column_or_index" TEXT NOT NULL,
  "mysql_type" TEXT NOT NULL,
  PRIMARY KEY ("table", "column_or_index")
);

CREATE TABLE "wp_users" (
  "ID" INTEGER PRIMARY KEY AUTOINCREMENT,
  "user_login" TEXT NOT NULL DEFAULT '',
  "user_pass" TEXT NOT NULL DEFAULT '',
  "user_nicename" TEXT NOT NULL DEFAULT '',
  "user_email" TEXT NOT NULL DEFAULT '',
  "user_url" TEXT NOT NULL DEFAULT '',
  "user_registered" TEXT NOT NULL DEFAULT '0000-00-00 00:00:00',
  "user_activation_key" TEXT NOT NULL DEFAULT '',
  "user_status" INTEGER NOT NULL DEFAULT ('0'),
  "display_name" TEXT NOT NULL DEFAULT ''
);

CREATE TABLE "wp_usermeta" (
  "umeta_id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "user_id" INTEGER NOT NULL DEFAULT ('0'),
  "meta_key" TEXT,
  "meta_value" TEXT
);

CREATE TABLE "wp_posts" (
  "ID" INTEGER PRIMARY KEY AUTOINCREMENT,
  "post_author" INTEGER NOT NULL DEFAULT ('0'),
  "post_date" TEXT NOT NULL DEFAULT '0000-00-00 00:00:00',
  "post_date_gmt" TEXT NOT NULL DEFAULT '0000-00-00 00:00:00',
  "post_content" TEXT NOT NULL,
  "post_title" TEXT NOT NULL,
  "post_status" TEXT NOT NULL DEFAULT 'publish',
  "comment_status" TEXT NOT NULL DEFAULT 'open',
  "post_name" TEXT NOT NULL DEFAULT '',
  "post_modified" TEXT NOT NULL DEFAULT '0000-00-00 00:00:00',
  "post_parent" INTEGER NOT NULL DEFAULT ('0'),
  "guid" TEXT NOT NULL DEFAULT '',
  "menu_order" INTEGER NOT NULL DEFAULT ('0'),
  "post_type" TEXT NOT NULL DEFAULT 'post',
  "comment_count" INTEGER NOT NULL DEFAULT ('0')
);

CREATE TABLE "wp_options" (
  "option_id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "option_name" TEXT NOT NULL DEFAULT '',
  "option_value" TEXT NOT NULL,
  "autoload" TEXT NOT NULL DEFAULT 'yes'
);

CREATE INDEX "wp_users__user_email" ON "wp_users" ("user_email");

CREATE INDEX "wp_users__user_login_key" ON "wp_users" ("user_login");

CREATE INDEX "wp_usermeta__user_id" ON "wp_usermeta" ("user_id");

CREATE INDEX "wp_posts__post_name" ON "wp_posts" ("post_name");

CREATE INDEX "wp_posts__post_parent" ON "wp_posts" ("post_parent");

CREATE INDEX "wp_posts__type_status_date" ON "wp_posts" ("post_type", "post_status", "post_date", "ID");

CREATE INDEX "wp_options__autoload" ON "wp_options" ("autoload");

CREATE UNIQUE INDEX "wp_options__option_name" ON "wp_options" ("option_name");
