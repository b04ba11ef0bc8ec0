import type { CampaignStore } from '../ports.ts';
import {
  CAMPAIGN_COLUMNS,
  campaignFromRow,
  insertCampaignSql,
  insertCampaignValues,
  replaceCampaignSql,
  replaceCampaignValues,
  type CampaignRow,
} from '../sql/campaign-rows.ts';
import { sqliteCodec } from '../sql/sql-codec.ts';
import type { SqliteDatabase } from './open-database.ts';

const toRecord = (r: CampaignRow) => campaignFromRow(r, sqliteCodec);

/** Campaigns in sponsored.db; deleted campaigns keep their row (deleted_at) for reports and charges. */
export function createSqliteCampaignStore(db: SqliteDatabase): CampaignStore {
  const insert = db.prepare(insertCampaignSql(sqliteCodec));
  const replace = db.prepare(replaceCampaignSql(sqliteCodec));
  const setStatus = db.prepare('UPDATE campaigns SET status = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL');
  const remove = db.prepare('UPDATE campaigns SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL');
  const get = db.prepare<[string], CampaignRow>(
    `SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE id = ? AND deleted_at IS NULL`,
  );
  const list = db.prepare<[], CampaignRow>(
    `SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE deleted_at IS NULL ORDER BY created_at, id`,
  );
  const version = db.prepare<[], { version: number }>('SELECT version FROM campaign_version WHERE id = 1');
  return {
    async insert(c) {
      insert.run(insertCampaignValues(c));
    },
    async replace(c) {
      return replace.run(replaceCampaignValues(c)).changes > 0;
    },
    async setStatus(id, status, at) {
      if (setStatus.run(status, at, id).changes === 0) return undefined;
      const row = get.get(id);
      return row && toRecord(row);
    },
    async delete(id, at) {
      return remove.run(at, at, id).changes > 0;
    },
    async get(id) {
      const row = get.get(id);
      return row && toRecord(row);
    },
    async list() {
      return list.all().map(toRecord);
    },
    async version() {
      return version.get()?.version ?? 0;
    },
  };
}
