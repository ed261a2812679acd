// E02: the import is added and Header is rendered above <main>; nothing else changes.
export default function verify({ read, result }) {
  const expected = `import React from 'react';
import './App.css';
import Header from './Header';

export default function App() {
  return (
    <div className="app">
      <Header />
      <main>
        <h1>Welcome</h1>
      </main>
    </div>
  );
}
`;
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  if (read("src/App.jsx") !== expected) failures.push("src/App.jsx is not exactly the expected text");
  return failures;
}
