#!/usr/bin/env python3
"""Benchmark helpers for bench/ws (not tests): the Python `websockets` echo
server, and the clients explorer is compared with. Everything is 127.0.0.1.

  ws_peers.py server                      prints ws://127.0.0.1:PORT/ and echoes until killed
  ws_peers.py python URL ROUNDS REPEATS   the `websockets` client
  ws_peers.py websocat URL ROUNDS REPEATS websocat 1.13, driven through its stdin/stdout
  ws_peers.py raw URL ROUNDS REPEATS      a blocking socket speaking just enough of RFC 6455:
                                          the least a client can do, so what is left is
                                          the server's echo and the kernel's

Each client connects once, warms up with 100 round trips, then REPEATS times
prints `sequential ROUNDS MS` (send a 100-byte text frame, wait for its echo)
and `pipelined ROUNDS MS` (ROUNDS sends, then ROUNDS echoes). No frame is
compressed: the Python peers run with compression=None, and the sandbox,
which agrees to the permessage-deflate explorer's client offers, compresses
(as that client does) only frames of 256 bytes or more.
"""
import asyncio
import base64
import os
import socket
import struct
import subprocess
import sys
import threading
import time


def frame(i):
    head = '{"i":%d,"pad":"' % i
    text = head + "x" * (100 - len(head) - 2) + '"}'
    assert len(text) == 100
    return text


def server():
    import websockets

    async def echo(ws):
        async for message in ws:
            await ws.send(message)

    async def main():
        async with websockets.serve(echo, "127.0.0.1", 0, compression=None, max_size=None) as s:
            print(f"ws://127.0.0.1:{s.sockets[0].getsockname()[1]}/", flush=True)
            await asyncio.Future()

    asyncio.run(main())


def python_client(url, rounds, repeats):
    import websockets

    async def main():
        async with websockets.connect(url, compression=None, max_size=None) as ws:
            async def sequential(n):
                start = time.perf_counter()
                for i in range(n):
                    await ws.send(frame(i))
                    assert await ws.recv() == frame(i)
                return time.perf_counter() - start

            async def pipelined(n):
                start = time.perf_counter()
                for i in range(n):
                    await ws.send(frame(i))
                for i in range(n):
                    assert await ws.recv() == frame(i)
                return time.perf_counter() - start

            await sequential(100)
            for _ in range(repeats):
                print(f"sequential {rounds} {await sequential(rounds) * 1000:.1f}", flush=True)
                print(f"pipelined {rounds} {await pipelined(rounds) * 1000:.1f}", flush=True)

    asyncio.run(main())


def websocat_client(url, rounds, repeats):
    # websocat sends each stdin line as a text frame and prints each frame
    # it receives as a line: this process writes a line and reads the echo.
    p = subprocess.Popen(["websocat", url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def sequential(n):
        start = time.perf_counter()
        for i in range(n):
            p.stdin.write((frame(i) + "\n").encode())
            assert p.stdout.readline().decode().rstrip("\n") == frame(i)
        return time.perf_counter() - start

    def pipelined(n):
        data = "".join(frame(i) + "\n" for i in range(n)).encode()
        start = time.perf_counter()
        writer = threading.Thread(target=p.stdin.write, args=(data,))
        writer.start()
        for i in range(n):
            assert p.stdout.readline().decode().rstrip("\n") == frame(i)
        writer.join()
        return time.perf_counter() - start

    try:
        sequential(100)
        for _ in range(repeats):
            print(f"sequential {rounds} {sequential(rounds) * 1000:.1f}", flush=True)
            print(f"pipelined {rounds} {pipelined(rounds) * 1000:.1f}", flush=True)
    finally:
        p.stdin.close()
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def raw_client(url, rounds, repeats):
    # ws://HOST:PORT/PATH, no TLS, no extensions; frames of under 64 KiB.
    address, _, path = url.removeprefix("ws://").partition("/")
    host, _, port = address.rpartition(":")
    sock = socket.create_connection((host, int(port)))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    pending = b""
    while b"\r\n\r\n" not in pending:
        chunk = sock.recv(4096)
        if not chunk:
            sys.exit("raw: the server closed during the handshake")
        pending += chunk
    head, _, pending = pending.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 101"):
        sys.exit(f"raw: no upgrade: {head.splitlines()[0]!r}")

    def send(payload):
        # A client frame must be masked; a zero mask leaves the payload as it is.
        assert len(payload) < 126
        sock.sendall(bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)

    def fill(n):
        nonlocal pending
        while len(pending) < n:
            chunk = sock.recv(65536)
            if not chunk:
                sys.exit("raw: the server closed the socket")
            pending += chunk

    def recv():
        nonlocal pending
        fill(2)
        length, start = pending[1] & 0x7F, 2
        if length == 126:
            fill(4)
            length, start = struct.unpack(">H", pending[2:4])[0], 4
        fill(start + length)
        payload, pending = pending[start:start + length], pending[start + length:]
        return payload.decode()

    def sequential(n):
        start = time.perf_counter()
        for i in range(n):
            send(frame(i).encode())
            assert recv() == frame(i)
        return time.perf_counter() - start

    def pipelined(n):
        data = [frame(i).encode() for i in range(n)]
        start = time.perf_counter()
        for payload in data:
            send(payload)
        for i in range(n):
            assert recv() == frame(i)
        return time.perf_counter() - start

    sequential(100)
    for _ in range(repeats):
        print(f"sequential {rounds} {sequential(rounds) * 1000:.1f}", flush=True)
        print(f"pipelined {rounds} {pipelined(rounds) * 1000:.1f}", flush=True)
    sock.close()


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "server":
        server()
    elif what == "python":
        python_client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif what == "websocat":
        websocat_client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif what == "raw":
        raw_client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(f"unknown: {what}")
