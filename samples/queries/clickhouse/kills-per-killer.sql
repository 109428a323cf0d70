-- SPDX-License-Identifier: GPL-2.0-or-later
-- Which tasks did the OOM kills run in (the allocating task, by_comm), how many kills, on how many hosts, of how much memory?
SELECT k.by_comm AS killer, k.oom_constraint AS oom_constraint, count() AS kills,
       uniqExact(r.host) AS hosts,
       sum(k.anon_rss_kb) AS anon_rss_total_kb,
       max(k.anon_rss_kb) AS largest_anon_kb
FROM oom_kills AS k ANY INNER JOIN recordings AS r USING recording_id
GROUP BY k.by_comm, k.oom_constraint
ORDER BY kills DESC, killer, oom_constraint;
