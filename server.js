// Production entry: `npm start`. React and React Router pick their production
// builds from NODE_ENV, so default it before anything loads them.
process.env.NODE_ENV ??= "production";
const { startServer } = await import("./build/server/index.js");
await startServer();
