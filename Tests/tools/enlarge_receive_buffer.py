"""Enlarges the receive buffer of the UDP socket another process has bound to a port.

Usage: enlarge_receive_buffer.py PID PORT BYTES

liblo's oscdump keeps the kernel's default receive buffer (212 KB, some 300 small datagrams), and `jacktap
analyze` sends a file's thousands of messages as fast as it reads them: whenever oscdump is kept off its core
for a few milliseconds (the host pausing that virtual CPU, which no priority inside the machine can prevent),
the kernel drops what the full buffer cannot take. This takes a duplicate of oscdump's own socket (pidfd_getfd,
Linux 5.6: the same open socket, not a copy of it) and sets its receive buffer, as the python-osc receivers set
their own, so oscdump decodes exactly what it would have, with room to catch up. Prints the buffer the kernel
granted (SO_RCVBUF reads back twice the bytes asked, its bookkeeping included).
"""
import ctypes
import os
import socket
import sys

SYS_PIDFD_GETFD = 438  # the same number on every Linux architecture since 5.6
SO_RCVBUFFORCE = 33    # SO_RCVBUF past net.core.rmem_max, for a caller with CAP_NET_ADMIN


def socket_inodes(port):
    """The inodes of the UDP sockets bound to `port` (column 10 of /proc/net/udp and udp6)."""
    inodes = set()
    for table in ("/proc/net/udp", "/proc/net/udp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                columns = line.split()
                if columns[1].endswith(":%04X" % port):
                    inodes.add(columns[9])
    return inodes


def main():
    pid, port, size = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    inodes = socket_inodes(port)
    target = None
    for name in os.listdir("/proc/%d/fd" % pid):
        link = os.readlink("/proc/%d/fd/%s" % (pid, name))
        if link.startswith("socket:[") and link[len("socket:["):-1] in inodes:
            target = int(name)
    if target is None:
        sys.exit("process %d holds no UDP socket bound to port %d" % (pid, port))
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    fd = libc.syscall(SYS_PIDFD_GETFD, pidfd, target, 0)
    if fd < 0:
        sys.exit("pidfd_getfd: " + os.strerror(ctypes.get_errno()))
    s = socket.socket(fileno=fd)
    try:
        s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, size)
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, size)
    granted = s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
    if granted < size:
        # Without CAP_NET_ADMIN, SO_RCVBUF stops at net.core.rmem_max: oscdump may still fall behind a burst.
        print("enlarge_receive_buffer: granted %d bytes of %d (net.core.rmem_max)" % (granted, size), file=sys.stderr)
    print(granted)
    # Closing the duplicate leaves oscdump's own descriptor, and the socket, open.
    s.close()
    os.close(pidfd)


main()
