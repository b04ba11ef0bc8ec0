import type pg from 'pg';
import type { CampaignRecord, CampaignStore } from '../ports.ts';
import {
  CAMPAIGN_COLUMNS,
  campaignFromRow,
  insertCampaignSql,
  insertCampaignValues,
  replaceCampaignSql,
  replaceCampaignValues,
  type CampaignRow,
} from '../sql/campaign-rows.ts';
import { postgresCodec } from '../sql/sql-codec.ts';

const INSERT = insertCampaignSql(postgresCodec);
const REPLACE = replaceCampaignSql(postgresCodec);

/**
 * Campaigns in PostgreSQL; deleted campaigns keep their row (deleted_at) for reports and
 * charges. version() reads a counter a trigger bumps in the same transaction as every
 * change to the table, whoever makes it (migration 001).
 */
export function createPostgresCampaignStore(pool: pg.Pool): CampaignStore {
  const one = async (text: string, params: unknown[]): Promise<CampaignRecord | undefined> => {
    const { rows } = await pool.query<CampaignRow>(text, params);
    return rows[0] && campaignFromRow(rows[0], postgresCodec);
  };
  return {
    async insert(c) {
      await pool.query(INSERT, insertCampaignValues(c));
    },
    async replace(c) {
      const { rowCount } = await pool.query(REPLACE, replaceCampaignValues(c));
      return (rowCount ?? 0) > 0;
    },
    async setStatus(id, status, when) {
      return one(
        `UPDATE campaigns SET status = $2, updated_at = $3 WHERE id = $1 AND deleted_at IS NULL RETURNING ${CAMPAIGN_COLUMNS}`,
        [id, status, when],
      );
    },
    async delete(id, when) {
      const { rowCount } = await pool.query(
        'UPDATE campaigns SET deleted_at = $2, updated_at = $2 WHERE id = $1 AND deleted_at IS NULL',
        [id, when],
      );
      return (rowCount ?? 0) > 0;
    },
    async get(id) {
      return one(`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE id = $1 AND deleted_at IS NULL`, [id]);
    },
    async list() {
      const { rows } = await pool.query<CampaignRow>(
        `SELECT ${CAMPAIGN_COLUMNS} FROM campaigns WHERE deleted_at IS NULL ORDER BY created_at, id`,
      );
      return rows.map((r) => campaignFromRow(r, postgresCodec));
    },
    async version() {
      const { rows } = await pool.query<{ version: string }>({
        name: 'scout_campaign_version',
        text: 'SELECT version FROM campaign_version WHERE id = 1',
      });
      return rows[0] ? Number(rows[0].version) : 0;
    },
  };
}
