# SPDX-License-Identifier: GPL-2.0-or-later
dist_man_MANS += man/mmscope.1 man/mmscope-dump.1 man/mmscope-convert.1 man/mmscope-samples.5 \
	man/mmscope-recording.5
dist_man_MANS += man/mmscope-record.1
dist_man_MANS += man/mmscope-compare.1
dist_man_MANS += man/mmscope-recover.1 man/mmscope-sample.1 man/mmscope-doctor.1
dist_man_MANS += man/mmscope-report.1
dist_man_MANS += man/mmscope-tui.1
