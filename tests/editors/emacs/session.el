;;; session.el --- drives Emacs (batch) with the documented editors/emacs/gdef-mode.el  -*- lexical-binding: t -*-
;; Environment: GDEF_EMACS_BROKEN (a game with an error), GDEF_EMACS_OUT (where to write what
;; Emacs received, as JSON). Run with `emacs --batch -q` (site files load: Debian's eglot).
;; tests/editors/test_emacs.py judges it.
(require 'json)
(require 'gdef-mode)

(let ((out '()))
  (condition-case err
      (progn
        (find-file (getenv "GDEF_EMACS_BROKEN"))
        (push (cons 'mode (symbol-name major-mode)) out)
        (push (cons 'comment_start comment-start) out)
        ;; eglot-ensure waits for the command loop, which batch Emacs does not run
        (run-hooks 'post-command-hook)
        (with-timeout (30 (push (cons 'timeout t) out))
          (while (not (flymake-diagnostics))
            (accept-process-output nil 0.1)))
        (push (cons 'diagnostics
                    (vconcat
                     (mapcar (lambda (d)
                               (let ((beg (flymake-diagnostic-beg d)))
                                 `((line . ,(line-number-at-pos beg))
                                   (column . ,(save-excursion (goto-char beg) (current-column)))
                                   (type . ,(symbol-name (flymake-diagnostic-type d)))
                                   (text . ,(flymake-diagnostic-text d)))))
                             (flymake-diagnostics))))
              out)
        (push (cons 'server (if (eglot-current-server) t :json-false)) out))
    (error (push (cons 'error (error-message-string err)) out)))
  (with-temp-file (getenv "GDEF_EMACS_OUT")
    (insert (json-encode out)))
  (kill-emacs 0))
