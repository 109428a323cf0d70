-- SPDX-License-Identifier: GPL-2.0-or-later
-- What share of the stores zswap was asked for did it refuse (pool limit or a reject), per host?
SELECT r.host,
       sum(z.stored) AS stored_pages,
       sum(z.refused) AS refused_pages,
       round(100.0 * sum(z.refused) / (sum(z.stored) + sum(z.refused)), 2) AS refused_pct
FROM (SELECT recording_id,
             max(zswpout_pages) - min(zswpout_pages) AS stored,
             max(pool_limit_hit) - min(pool_limit_hit) + max(rejects) - min(rejects) AS refused
      FROM zswap GROUP BY recording_id) AS z
JOIN recordings AS r USING (recording_id)
GROUP BY r.host
HAVING sum(z.stored) + sum(z.refused) > 0
ORDER BY refused_pct DESC, r.host;
