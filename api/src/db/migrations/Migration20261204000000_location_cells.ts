import { Migration } from '@mikro-orm/migrations';

/**
 * Location privacy (issue 26): a member's point is kept as given, but whatever others can observe is computed from the
 * centre of the grid cell holding it, about 2 km on a side, so no mix of calls places a member closer than the cell.
 *
 * Rows are 0.018° of latitude (2.0 km) from the south pole; each row is cut into the whole number of cells that keeps
 * them at least 0.018° of a great circle wide at the row's middle latitude (20,000 at the equator, 3 at the poles), so
 * a cell stays about 2 km wide at every latitude instead of narrowing to nothing near the poles. A centre is rounded to
 * six decimals (a tenth of a metre) for tidy answers; snapping a centre gives that centre again, so a stored cell can
 * be written twice.
 *
 * One definition, in SQL: the member's cell is a stored generated column (with its point on the earth, which carries
 * the GiST index), and a mix, whose place is its owner's, stores only the cell: a trigger snaps whatever is written
 * (the app copies the owner's cell; the demo world, benches and tests may write a raw point), so `mix.geo` and the
 * feed's indexes hold cells alone. Existing rows are backfilled here.
 */
export class Migration20261204000000_location_cells extends Migration {
  override async up(): Promise<void> {
    // PL/pgSQL keeps each function's plan between calls: as SQL functions with a search_path (not inlinable) they were
    // planned on every call, ten times slower.
    this.addSql(`create or replace function geo_cell_latitude(lat float8) returns float8
      language plpgsql immutable strict parallel safe set search_path = public, pg_temp
      as $$ begin
        return round(((least(floor((lat + 90) / 0.018::float8), 9999) + 0.5) * 0.018::float8 - 90)::numeric, 6)::float8;
      end $$`);
    this.addSql(`create or replace function geo_cell_longitude(lat float8, lng float8) returns float8
      language plpgsql immutable strict parallel safe set search_path = public, pg_temp
      as $$ declare
        cells float8 := greatest(1, floor(360 * cos(radians(geo_cell_latitude(lat))) / 0.018::float8));
      begin
        return round(((least(floor((lng + 180) * cells / 360), cells - 1) + 0.5) * 360 / cells - 180)::numeric, 6)::float8;
      end $$`);

    this.addSql(`alter table "app_user"
      add column "cell_latitude" double precision null generated always as (geo_cell_latitude("latitude")) stored,
      add column "cell_longitude" double precision null generated always as (geo_cell_longitude("latitude", "longitude")) stored,
      add column "cell_geo" earth null generated always as (geo_earth(geo_cell_latitude("latitude"), geo_cell_longitude("latitude", "longitude"))) stored`);
    this.addSql('drop index "app_user_geo_idx"');
    this.addSql('create index "app_user_cell_geo_idx" on "app_user" using gist ("cell_geo")');

    this.addSql(`create or replace function mix_location_cell() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin
        new.longitude := geo_cell_longitude(new.latitude, new.longitude);
        new.latitude := geo_cell_latitude(new.latitude);
        return new;
      end $$`);
    this.addSql(`create trigger "mix_location_cell" before insert or update of "latitude", "longitude" on "mix"
      for each row execute function mix_location_cell()`);
    this.addSql('update "mix" set "latitude" = "latitude" where "latitude" is not null or "longitude" is not null');
  }
}
