import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AuthProvider } from './auth/auth';
import { createAppRouter } from './router';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// A transition, so React renders the first screen in slices that let the browser breathe (no long task on a slow phone).
startTransition(() => {
  createRoot(container).render(
    <StrictMode>
      <AuthProvider>
        <RouterProvider router={createAppRouter()} />
      </AuthProvider>
    </StrictMode>,
  );
});
