-- SPDX-License-Identifier: GPL-2.0-or-later
-- How long are direct and memcg reclaim stalls (count, p99 by nearest rank, max) in each memory cgroup, fleet-wide?
SELECT cgroup, kind, count() AS stalls,
       arraySort(groupArray(duration_ns))[intDiv(count() * 99 + 99, 100)] AS p99_ns,
       max(duration_ns) AS max_ns
FROM stalls
WHERE kind IN ('direct', 'memcg') AND cgroup IS NOT NULL
GROUP BY cgroup, kind
ORDER BY cgroup, kind;
