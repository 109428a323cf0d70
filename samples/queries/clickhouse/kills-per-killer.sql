-- SPDX-License-Identifier: GPL-2.0-or-later
-- Who killed (kernel-oom, memcg-oom, systemd-oomd, earlyoom, other:COMM), how often, on how many hosts, what the 10 s before looked like, and one kill's dossier headline?
SELECT k.killer AS killer, count() AS kills,
       uniqExact(r.host) AS hosts,
       sum(k.direct_stalls) AS direct_stalls,
       sum(k.memcg_stalls) AS memcg_stalls,
       max(k.psi_some_avg10) AS psi_some_avg10_max,
       min(k.headline) AS a_headline
FROM kills AS k ANY INNER JOIN recordings AS r USING recording_id
GROUP BY k.killer
ORDER BY kills DESC, killer;
