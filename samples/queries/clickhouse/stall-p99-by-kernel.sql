-- SPDX-License-Identifier: GPL-2.0-or-later
-- How long are direct and memcg reclaim stalls (count, p99, max) on each kernel?
-- per recording first (quantileExactState keeps its stalls), so the join
-- is of a row per recording and kind, not per stall
SELECT kernel, kind, sum(n) AS stalls,
       quantileExactMerge(0.99)(q) AS p99_ns,
       max(longest) AS max_ns
FROM (SELECT recording_id, kind, count() AS n, quantileExactState(0.99)(duration_ns) AS q,
             max(duration_ns) AS longest
      FROM stalls WHERE kind IN ('direct', 'memcg') GROUP BY recording_id, kind)
ANY INNER JOIN (SELECT recording_id, kernel FROM recordings) USING recording_id
GROUP BY kernel, kind
ORDER BY kernel, kind;
