#!/usr/bin/env python3
"""A server that accepts TCP connections on 127.0.0.1:PORT and never sends a byte (a relay that hangs
before the WebSocket handshake). usage: silent_tcp.py PORT"""
import socket
import sys
import time

server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", int(sys.argv[1])))
server.listen(64)
held = []
while True:
    connection, _ = server.accept()
    held.append(connection)  # kept open, never answered
