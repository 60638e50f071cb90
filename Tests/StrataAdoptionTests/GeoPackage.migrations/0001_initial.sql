-- 0001_initial: GeoPackage.schema.yml
--   create table gpkg_spatial_ref_sys
--   create table gpkg_contents
--   create table gpkg_geometry_columns
--   create table gpkg_tile_matrix_set
--   create table gpkg_tile_matrix
--   create table places
--   create trigger gpkg_tile_matrix_zoom_level_insert
--   create trigger gpkg_tile_matrix_matrix_width_insert

CREATE TABLE "gpkg_spatial_ref_sys" (
  "srs_name" TEXT NOT NULL,
  "srs_id" INTEGER PRIMARY KEY NOT NULL,
  "organization" TEXT NOT NULL,
  "organization_coordsys_id" INTEGER NOT NULL,
  "definition" TEXT NOT NULL,
  "description" TEXT
);

CREATE TABLE "gpkg_contents" (
  "table_name" TEXT PRIMARY KEY NOT NULL,
  "data_type" TEXT NOT NULL,
  "identifier" TEXT UNIQUE,
  "description" TEXT DEFAULT '',
  "last_change" DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  "min_x" DOUBLE,
  "min_y" DOUBLE,
  "max_x" DOUBLE,
  "max_y" DOUBLE,
  "srs_id" INTEGER,
  FOREIGN KEY ("srs_id") REFERENCES "gpkg_spatial_ref_sys" ("srs_id")
);

CREATE TABLE "gpkg_geometry_columns" (
  "table_name" TEXT NOT NULL UNIQUE,
  "column_name" TEXT NOT NULL,
  "geometry_type_name" TEXT NOT NULL,
  "srs_id" INTEGER NOT NULL,
  "z" TINYINT NOT NULL CHECK (z IN (0, 1, 2)),
  "m" TINYINT NOT NULL CHECK (m IN (0, 1, 2)),
  PRIMARY KEY ("table_name", "column_name"),
  FOREIGN KEY ("table_name") REFERENCES "gpkg_contents" ("table_name"),
  FOREIGN KEY ("srs_id") REFERENCES "gpkg_spatial_ref_sys" ("srs_id")
);

CREATE TABLE "gpkg_tile_matrix_set" (
  "table_name" TEXT PRIMARY KEY NOT NULL,
  "srs_id" INTEGER NOT NULL,
  "min_x" DOUBLE NOT NULL,
  "min_y" DOUBLE NOT NULL,
  "max_x" DOUBLE NOT NULL,
  "max_y" DOUBLE NOT NULL,
  FOREIGN KEY ("table_name") REFERENCES "gpkg_contents" ("table_name"),
  FOREIGN KEY ("srs_id") REFERENCES "gpkg_spatial_ref_sys" ("srs_id")
);

CREATE TABLE "gpkg_tile_matrix" (
  "table_name" TEXT NOT NULL,
  "zoom_level" INTEGER NOT NULL,
  "matrix_width" INTEGER NOT NULL,
  "matrix_height" INTEGER NOT NULL,
  "tile_width" INTEGER NOT NULL,
  "tile_height" INTEGER NOT NULL,
  "pixel_x_size" DOUBLE NOT NULL,
  "pixel_y_size" DOUBLE NOT NULL,
  PRIMARY KEY ("table_name", "zoom_level"),
  FOREIGN KEY ("table_name") REFERENCES "gpkg_contents" ("table_name")
);

CREATE TABLE "places" (
  "fid" INTEGER PRIMARY KEY AUTOINCREMENT,
  "geom" POINT,
  "name" TEXT,
  "population" MEDIUMINT
);

CREATE TRIGGER 'gpkg_tile_matrix_zoom_level_insert'
BEFORE INSERT ON 'gpkg_tile_matrix'
FOR EACH ROW BEGIN
SELECT RAISE(ABORT, 'insert on table ''gpkg_tile_matrix'' violates constraint: zoom_level cannot be less than 0')
WHERE (NEW.zoom_level < 0);
END;

CREATE TRIGGER 'gpkg_tile_matrix_matrix_width_insert'
BEFORE INSERT ON 'gpkg_tile_matrix'
FOR EACH ROW BEGIN
SELECT RAISE(ABORT, 'insert on table ''gpkg_tile_matrix'' violates constraint: matrix_width cannot be less than 1')
WHERE (NEW.matrix_width < 1);
END;
