-- SPDX-License-Identifier: GPL-2.0-or-later
-- How long are direct and memcg reclaim stalls (count, p99, max) in each memory cgroup, fleet-wide?
WITH s AS (
  SELECT cgroup, kind, duration_ns,
         row_number() OVER (PARTITION BY cgroup, kind ORDER BY duration_ns) AS rn,
         count(*) OVER (PARTITION BY cgroup, kind) AS n
  FROM stalls
  WHERE kind IN ('direct', 'memcg') AND cgroup IS NOT NULL)
SELECT cgroup, kind, max(n) AS stalls,
       -- p99: the stall with floor(0.99 n) of the n stalls before it (ClickHouse's quantileExact)
       max(CASE WHEN rn = n * 99 / 100 + 1 THEN duration_ns END) AS p99_ns,
       max(duration_ns) AS max_ns
FROM s
GROUP BY cgroup, kind
ORDER BY cgroup, kind;
