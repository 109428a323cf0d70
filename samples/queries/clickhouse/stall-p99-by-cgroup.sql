-- SPDX-License-Identifier: GPL-2.0-or-later
-- How long are direct and memcg reclaim stalls (count, p99, max) in each memory cgroup, fleet-wide?
SELECT cgroup, kind, count() AS stalls,
       quantileExact(0.99)(duration_ns) AS p99_ns,
       max(duration_ns) AS max_ns
FROM stalls
WHERE kind IN ('direct', 'memcg') AND cgroup IS NOT NULL
GROUP BY cgroup, kind
ORDER BY cgroup, kind;
