# SPDX-License-Identifier: GPL-2.0-or-later
# systemd/: the flight recorder as a service. make install puts the unit in
# $(systemdsystemunitdir) (configure --with-systemdsystemunitdir; "no"
# skips it) and the example config in $(sysconfdir)/mmscope as
# recorder.conf.example (a real recorder.conf is never overwritten).
EXTRA_DIST += systemd/mmscope-recorder.service.in systemd/recorder.conf
CLEANFILES += systemd/mmscope-recorder.service

systemd/mmscope-recorder.service: $(srcdir)/systemd/mmscope-recorder.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	sed -e 's|@bindir[@]|$(bindir)|g' -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
		$(srcdir)/systemd/mmscope-recorder.service.in >$@.tmp && mv $@.tmp $@

if HAVE_SYSTEMD_UNITDIR
systemdsystemunit_DATA = systemd/mmscope-recorder.service
endif
mmscopeconfdir = $(sysconfdir)/mmscope
install-data-local:
	$(MKDIR_P) '$(DESTDIR)$(mmscopeconfdir)'
	$(INSTALL_DATA) $(srcdir)/systemd/recorder.conf \
		'$(DESTDIR)$(mmscopeconfdir)/recorder.conf.example'
uninstall-local:
	rm -f '$(DESTDIR)$(mmscopeconfdir)/recorder.conf.example'
