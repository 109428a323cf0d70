-- SPDX-License-Identifier: GPL-2.0-or-later
-- How long are direct and memcg reclaim stalls (count, p99, max) on each kernel?
SELECT r.kernel AS kernel, s.kind AS kind, count() AS stalls,
       quantileExact(0.99)(s.duration_ns) AS p99_ns,
       max(s.duration_ns) AS max_ns
FROM stalls AS s ANY INNER JOIN (SELECT recording_id, kernel FROM recordings) AS r USING recording_id
WHERE s.kind IN ('direct', 'memcg')
GROUP BY r.kernel, s.kind
ORDER BY kernel, kind;
