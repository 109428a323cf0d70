-- SPDX-License-Identifier: GPL-2.0-or-later
-- How often does an mTHP swap-out fall back to order 0, per folio order and kernel (the kernel's counters)?
SELECT r.kernel, o.alloc_order, o.size_kb,
       sum(o.swpout_folios) AS swpout,
       sum(o.swpout_fallback_folios) AS fallback,
       round(100.0 * sum(o.swpout_fallback_folios) /
             (sum(o.swpout_folios) + sum(o.swpout_fallback_folios)), 2) AS fallback_pct
FROM swap_orders AS o JOIN recordings AS r USING (recording_id)
WHERE o.alloc_order > 0
GROUP BY r.kernel, o.alloc_order, o.size_kb
HAVING sum(o.swpout_folios) + sum(o.swpout_fallback_folios) > 0
ORDER BY r.kernel, o.alloc_order;
