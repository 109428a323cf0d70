# SPDX-License-Identifier: GPL-2.0-or-later
# man/: a page per subcommand, the recording and the sample format.
dist_man_MANS += \
	man/mmscope.1 \
	man/mmscope-record.1 man/mmscope-report.1 man/mmscope-compare.1 \
	man/mmscope-tui.1 man/mmscope-dump.1 man/mmscope-convert.1 \
	man/mmscope-recover.1 man/mmscope-sample.1 man/mmscope-doctor.1 \
	man/mmscope-recording.5 man/mmscope-samples.5
dist_man_MANS += man/mmscope-export.1 man/mmscope-export.5 man/mmscope-plot.1
