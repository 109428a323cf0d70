-- SPDX-License-Identifier: GPL-2.0-or-later
-- How long are direct and memcg reclaim stalls (count, p99 by nearest rank, max) on each kernel?
SELECT r.kernel AS kernel, s.kind AS kind, count() AS stalls,
       arraySort(groupArray(s.duration_ns))[intDiv(count() * 99 + 99, 100)] AS p99_ns,
       max(s.duration_ns) AS max_ns
FROM stalls AS s ANY INNER JOIN recordings AS r USING recording_id
WHERE s.kind IN ('direct', 'memcg')
GROUP BY r.kernel, s.kind
ORDER BY kernel, kind;
