// A Socket.IO server (socket.io from npm) for TestSettleSocketIO: it accepts any
// origin and sends each client a "tick" every 30 ms, as a live dashboard's server
// does. Prints "listening PORT" once it listens on a loopback port of its choosing.
"use strict";
const { createServer } = require("http");
const { Server } = require("socket.io");
const http = createServer();
const io = new Server(http, { cors: { origin: "*" } });
io.on("connection", (socket) => {
  let n = 0;
  const t = setInterval(() => socket.emit("tick", ++n), 30);
  socket.on("note", (text, ack) => ack("saved " + text));
  socket.on("disconnect", () => clearInterval(t));
});
http.listen(0, "127.0.0.1", () => process.stdout.write("listening " + http.address().port + "\n"));
