#!/usr/bin/env python3
"""A listener on 127.0.0.1:PORT that counts connection attempts (written to FILE after each) and closes
each at once: a relay we blocked must never see one. usage: counting_tcp.py PORT FILE"""
import socket
import sys

server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", int(sys.argv[1])))
server.listen(64)
count = 0
while True:
    connection, _ = server.accept()
    count += 1
    with open(sys.argv[2], "w") as f:
        f.write(str(count))
    connection.close()
