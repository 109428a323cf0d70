# SPDX-License-Identifier: GPL-2.0-or-later
# parsers/: one file per event family and per counter source, registered in
# one table; each turns raw events or samples into typed records.
