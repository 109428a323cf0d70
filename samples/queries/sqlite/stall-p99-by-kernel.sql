-- SPDX-License-Identifier: GPL-2.0-or-later
-- How long are direct and memcg reclaim stalls (count, p99, max) on each kernel?
WITH s AS (
  SELECT r.kernel, s.kind, s.duration_ns,
         row_number() OVER (PARTITION BY r.kernel, s.kind ORDER BY s.duration_ns) AS rn,
         count(*) OVER (PARTITION BY r.kernel, s.kind) AS n
  FROM stalls AS s JOIN recordings AS r USING (recording_id)
  WHERE s.kind IN ('direct', 'memcg'))
SELECT kernel, kind, max(n) AS stalls,
       -- p99: the stall with floor(0.99 n) of the n stalls before it (ClickHouse's quantileExact)
       max(CASE WHEN rn = n * 99 / 100 + 1 THEN duration_ns END) AS p99_ns,
       max(duration_ns) AS max_ns
FROM s
GROUP BY kernel, kind
ORDER BY kernel, kind;
